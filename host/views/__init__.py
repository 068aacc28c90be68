"""How the terminal game shows each game: ``draw(game)`` gives the board as
text, ``say(game, event)`` one event as a sentence."""
