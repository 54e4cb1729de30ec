x, y := 1, 2
x, y = y, x
fmt.Println(x, y)
a, b, c := "a", 2, 3.0
fmt.Println(a, b, c)
var i, j int = 3, 4
i, j = i+j, i*j
fmt.Println(i, j)
