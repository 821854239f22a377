"""Plot families: each validates its input, builds a release and draws only the release."""
