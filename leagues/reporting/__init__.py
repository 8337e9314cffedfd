"""A paper table reports itself: its players enter its strokes hole by hole on a phone,
another player of the table confirms each hole, and the organiser settles disputes."""
