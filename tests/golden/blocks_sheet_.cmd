sheet --review blocks.muster
