// Package azure builds nb's Azure OpenAI provider: the OpenAI Chat
// Completions provider pointed at an Azure resource endpoint, with an
// api-version and a deployment name in place of the model.
package azure

import (
	"net/http"
	"strings"

	oazure "github.com/openai/openai-go/v3/azure"
	"github.com/openai/openai-go/v3/option"

	"github.com/nb-cli/nb/internal/llm/openai"
)

// DefaultAPIVersion is used when none is configured.
const DefaultAPIVersion = "2024-10-21"

// Config configures an Azure OpenAI provider.
type Config struct {
	// Name is the provider's configured name ("azure" when empty).
	Name string
	// Endpoint is https://RESOURCE.openai.azure.com.
	Endpoint   string
	APIVersion string
	// Deployment is the deployment name; it is sent as the model.
	Deployment string
	APIKey     string
	Headers    map[string]string
	MaxTokens  int
	HTTPClient *http.Client
}

// New builds the provider. It does no network I/O.
func New(cfg Config) *openai.Provider {
	version := cfg.APIVersion
	if version == "" {
		version = DefaultAPIVersion
	}
	opts := []option.RequestOption{
		oazure.WithEndpoint(cfg.Endpoint, version),
		oazure.WithAPIKey(cfg.APIKey),
	}
	if strings.HasPrefix(strings.ToLower(cfg.Endpoint), "http://") {
		// Only honoured for loopback addresses (local proxies and tests).
		opts = append(opts, oazure.WithUnsafeAllowHTTP())
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	name := cfg.Name
	if name == "" {
		name = "azure"
	}
	return openai.NewWithOptions(name, cfg.Deployment, cfg.MaxTokens, false, opts...)
}
