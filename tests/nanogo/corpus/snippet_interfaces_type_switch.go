values := []interface{}{42, "hello", 3.14, true, nil, []string{"x"}, 'r'}
for _, v := range values {
	switch t := v.(type) {
	case int:
		fmt.Println("int:", t*2)
	case string:
		fmt.Println("string:", strings.ToUpper(t))
	case float64:
		fmt.Println("float64:", t)
	case bool:
		fmt.Println("bool:", !t)
	case nil:
		fmt.Println("nil value")
	default:
		fmt.Printf("other: %T %v\n", t, t)
	}
}
