"""Human-written evaluation questions: the Question schema, import + validation, task export."""
