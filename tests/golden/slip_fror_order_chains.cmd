sheet ../../rules/for-reign-or-ruin.muster order_change
