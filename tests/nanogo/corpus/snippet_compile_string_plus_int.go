n := 7
msg := "value: " + n
fmt.Println(msg)
