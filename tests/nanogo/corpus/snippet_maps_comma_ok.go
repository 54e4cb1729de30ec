capitals := map[string]string{
	"France":  "Paris",
	"Japan":   "Tokyo",
	"Germany": "Berlin",
}
for _, country := range []string{"Japan", "Spain"} {
	if city, ok := capitals[country]; ok {
		fmt.Printf("The capital of %s is %s\n", country, city)
	} else {
		fmt.Printf("I don't know the capital of %s\n", country)
	}
}
delete(capitals, "Germany")
fmt.Println(len(capitals), capitals)
