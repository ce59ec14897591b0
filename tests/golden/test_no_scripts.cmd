test no_scripts
