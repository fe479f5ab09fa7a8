"""tabletop: an offline, voice-controlled referee for Go Fish played with a real deck."""

__version__ = "0.1.0"
