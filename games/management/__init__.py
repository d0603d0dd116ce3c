"""Django management commands of the rules engine (its Django edge)."""
