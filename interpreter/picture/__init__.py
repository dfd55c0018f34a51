"""Pictures of boards and tables as SVG (`svg.py`), what `racecraft render` draws from the file it
is given (`render.py`), and the command (`commands.py`)."""
