func validate(age int) error {
	if age < 0 {
		return errors.New("age cannot be negative")
	}
	if age > 130 {
		return fmt.Errorf("age %d is unrealistic", age)
	}
	return nil
}

for _, a := range []int{25, -1, 200} {
	if err := validate(a); err != nil {
		fmt.Println("invalid:", err)
	} else {
		fmt.Println("valid:", a)
	}
}
