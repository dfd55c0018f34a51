"""Pictures of boards and tables as SVG (`svg.py`) and what `racecraft render` draws from the file it
is given (`render.py`); the command is the designer's (`authoring/commands.py`: it draws a scenario
as `check` plays it)."""
