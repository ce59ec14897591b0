check errors.muster
