"""The player page `/play/`: a patron plays a skill game from a kiosk or a casino tablet."""
