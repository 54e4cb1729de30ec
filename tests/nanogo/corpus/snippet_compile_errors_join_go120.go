e1 := errors.New("first")
e2 := errors.New("second")
err := errors.Join(e1, e2)
fmt.Println(err)
