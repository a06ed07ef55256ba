"""Kept only because arena/play/players.py imports it; delete once players.py opens every seat with
`bots.volcanoes.seat.open_seat`. The adapter is `bots.volcanoes.bot.Player`."""
