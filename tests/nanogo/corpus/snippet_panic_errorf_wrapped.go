base := errors.New("connection refused")
err := fmt.Errorf("dial %s:%d: %w", "db.local", 5432, base)
fmt.Println("retrying...")
if errors.Is(err, base) {
	panic(err)
}
