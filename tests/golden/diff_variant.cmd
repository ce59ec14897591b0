diff ../bad/bases/variant_base.muster variant_house.muster
