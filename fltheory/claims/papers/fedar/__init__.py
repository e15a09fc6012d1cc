"""FedAR: claims by section (``s5_1_*`` for §5.1, …); ``_*`` modules hold shared arithmetic."""
