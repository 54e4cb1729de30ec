var (
	ErrEmpty   = errors.New("empty input")
	ErrTooLong = errors.New("input too long")
)

check := func(s string) error {
	switch {
	case s == "":
		return ErrEmpty
	case len(s) > 5:
		return fmt.Errorf("check %q: %w", s, ErrTooLong)
	}
	return nil
}

for _, s := range []string{"", "hello", "too long!"} {
	err := check(s)
	switch {
	case err == nil:
		fmt.Println(s, "ok")
	case errors.Is(err, ErrEmpty):
		fmt.Println("empty!")
	case errors.Is(err, ErrTooLong):
		fmt.Println("long:", err)
	}
}
