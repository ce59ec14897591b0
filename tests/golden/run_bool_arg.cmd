run values.muster visible w=clear night=true
