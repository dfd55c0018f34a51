"""The built-in functions and effects of the rule language: each declared once, with its
signature, and how it runs. Board kinds declare theirs the same way (`interpreter/boards`)."""
