point := struct {
	X, Y int
}{3, 4}
fmt.Println(point, point.X*point.Y)
config := map[string]struct {
	Port int
	TLS  bool
}{
	"web": {8080, false},
	"api": {8443, true},
}
fmt.Println(config)
fmt.Printf("%+v\n", config["api"])
