"""FedPBC: claims by section (``s5b_*`` for §V-B, …); ``_*`` modules hold shared arithmetic."""
