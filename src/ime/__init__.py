"""IME: imitate individual game bots from their match logs and measure how alike two agents are."""

__version__ = "0.1.0"
