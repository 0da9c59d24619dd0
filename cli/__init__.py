"""The `boom` command line: parses arguments, calls rulesengine, prints. No game logic lives here."""
