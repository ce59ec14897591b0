sheet --review variant_sheet_house.muster --html
