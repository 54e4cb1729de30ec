a, b := 3, 7
max := a > b ? a : b
fmt.Println(max)
