type ValidationError struct{ Field string }

func (v *ValidationError) Error() string { return "invalid " + v.Field }

func validate(name string) error {
	var verr *ValidationError
	if name == "" {
		verr = &ValidationError{"name"}
	}
	if verr != nil {
		return verr
	}
	return nil
}

for _, n := range []string{"bob", ""} {
	if err := validate(n); err != nil {
		fmt.Printf("%q: %v (%T)\n", n, err, err)
	} else {
		fmt.Printf("%q: ok\n", n)
	}
}
