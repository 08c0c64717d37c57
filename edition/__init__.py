"""A critical edition engine: witnesses -> episodes -> parallel rows -> variant notes."""
