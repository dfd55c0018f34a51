"""Drawing that knows no board kind: the SVG canvas with its label placement, what a picture knows
of the table, and the words every text drawing says of a piece. Board kinds draw with these."""
