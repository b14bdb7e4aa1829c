def slugify(text: str) -> str:
    """Lower-case text joined by dashes."""
    return "-".join(text.lower().split())
