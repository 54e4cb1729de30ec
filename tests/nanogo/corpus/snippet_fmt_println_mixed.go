x := 3
y := 4.5
s := "str"
b := true
var nothing interface{}
fmt.Println(x, y, s, b, nothing)
fmt.Print(x, y, s, b, "\n")
fmt.Print(s, x, y, "\n")
fmt.Println([]interface{}{x, y, s}, []float64{1, 2.5}, [2]string{"a", "b"})
fmt.Println(map[string]interface{}{"n": 1, "s": "two", "f": 3.0})
