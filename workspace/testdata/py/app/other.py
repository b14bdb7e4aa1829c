def connect(host):
    """Unrelated connect."""
    return host
