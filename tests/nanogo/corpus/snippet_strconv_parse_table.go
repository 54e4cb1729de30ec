inputs := []string{"42", "-7", "3.14", "1e3", "abc", "0x1F", ""}
for _, in := range inputs {
	if n, err := strconv.Atoi(in); err == nil {
		fmt.Printf("%-5q int   %d\n", in, n)
	} else if f, err := strconv.ParseFloat(in, 64); err == nil {
		fmt.Printf("%-5q float %g\n", in, f)
	} else {
		fmt.Printf("%-5q error %v\n", in, err)
	}
}
