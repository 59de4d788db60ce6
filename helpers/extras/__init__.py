"""Code of the book's extras that the lessons show (local attention, …), kept apart from the chapter's model code."""
