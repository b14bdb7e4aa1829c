from .models import User
from app.util import slugify
import app.db as db


def run(name):
    user = User(name)
    conn = db.connect("sqlite://")
    return slugify(user.name), conn
