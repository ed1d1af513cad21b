"""fullgraph: find and fix torch.compile graph breaks."""

__version__ = "0.1.0"
