"""What a designer checks a ruleset with: validate, scenarios (`check`), explain."""
