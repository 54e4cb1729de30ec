var v interface{} = 3.14
s := v.(string)
fmt.Println(s)
