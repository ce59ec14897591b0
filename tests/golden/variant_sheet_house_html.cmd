sheet variant_sheet_house.muster --html
