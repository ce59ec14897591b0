prob when.muster kept --vs when_house.muster
