"""The night board: a full-screen page for a TV or projector in the room, opened by an
unguessable link (no sign-in), showing every table's holes and the night's running
standings, updated over a WebSocket as holes land."""
