"""CA-Fed (ToN, HAL version with the supplement): claims by section — ``s3a_*`` for §III-A,
``app_b2_*`` for App. B2, … (:func:`fltheory.claims.index.section_prefix`); ``_*`` modules hold
shared arithmetic and register nothing."""
