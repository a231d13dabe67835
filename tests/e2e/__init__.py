"""End-to-end tests: the real dashboard in a real headless Chromium."""
