"""The thesis as data: its numbers and stated conclusions (``config/thesis/``), and the code that
holds a reproduction's results against them."""
