class User:
    """A registered user."""

    def __init__(self, name, email=None):
        self.name = name
        self.email = email

    def greet(self) -> str:
        return "hi " + self.name
