x := 10
y := 20
fmt.Println(x)
