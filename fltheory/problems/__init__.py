"""Problems with exact answers (quadratics), constant tables and problem files."""
