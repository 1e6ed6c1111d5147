package agent

import "encoding/json"

// description extracts the optional "description" argument (the model's
// stated intent) from raw tool arguments.
func description(args []byte) string {
	var v struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(args, &v) != nil {
		return ""
	}
	return v.Description
}
