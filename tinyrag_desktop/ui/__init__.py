"""The Qt window: widgets, the chat view, and the bridge from engine events to Qt signals."""
