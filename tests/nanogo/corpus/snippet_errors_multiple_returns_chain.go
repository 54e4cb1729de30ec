func parseAge(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("parseAge(%q): %w", s, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("parseAge(%q): negative", s)
	}
	return n, nil
}

for _, in := range []string{" 42 ", "-3", "forty"} {
	age, err := parseAge(in)
	if err != nil {
		fmt.Println("error:", err)
		var numErr *strconv.NumError
		fmt.Println("  is NumError:", errors.As(err, &numErr))
		continue
	}
	fmt.Println("age:", age)
}
