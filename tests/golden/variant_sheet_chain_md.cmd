sheet --review variant_sheet_chain.muster
